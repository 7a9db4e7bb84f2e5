"""Answers and documents as the prose they state: citation markers, markdown and quotation marks taken off.

Models write answers with ``[1]``, ``[doc1]`` or ``【4:0†file.md】`` after their sentences, in bullets, tables
and bold; documents are often markdown too. None of that is a claim: the judges read the words it wraps.
"""
