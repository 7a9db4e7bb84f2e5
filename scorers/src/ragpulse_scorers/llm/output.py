"""What a judge answers: a model whose fields are all required, reasoning first, with a filled example.

Small models served with grammar-constrained decoding (llama.cpp's ``json_object`` + schema) leave out every
field the schema does not require, so a field a score needs must be required. Reasoning fields come before
the verdict they justify, so a model writes its reasons before it commits. Prompts show :attr:`example`, an
object filled with plausible values, never a JSON Schema: a small model asked to follow a schema tends to
echo the schema back.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from pydantic import BaseModel

EXAMPLE_INTRO = (
    "Reply with only one JSON object shaped like this example, every field present and in this order, "
    "the values being your own judgment of the input (the example's values are made up):"
)
LIST_INTRO = (
    'Reply with only one JSON object {{"{field}": [...]}} whose list holds one entry for every item you '
    "were asked about, in order. Each entry is shaped like this example, every field present and in this "
    "order, the values being your own judgment (the example's values are made up):"
)


class JudgeOutput(BaseModel):
    example: ClassVar[dict[str, Any]]
    """A filled, valid answer shown to the judge; checked against the model when the class is defined."""

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        optional = [name for name, field in cls.model_fields.items() if not field.is_required()]
        if optional:
            raise TypeError(f"{cls.__name__}: every field of a judge's answer is required, not {optional}")
        cls.model_validate(cls.example)
        if list(cls.example) != list(cls.model_fields):
            raise TypeError(f"{cls.__name__}.example must fill every field, in the model's order")


def example_instruction(output_model: type[JudgeOutput]) -> str:
    """The closing instruction of every judge prompt: the answer's shape, shown by example.

    An answer that is one list of entries (a verdict per item) is shown by one example entry: shown a whole
    example list, a small model copies it, entry for entry, and stops where the example does.
    """
    fields = list(output_model.example.items())
    if len(fields) == 1:
        name, value = fields[0]
        if isinstance(value, list) and len(value) == 1 and isinstance(value[0], dict):
            return f"{LIST_INTRO.format(field=name)}\n{json.dumps(value[0], ensure_ascii=False)}"
    return f"{EXAMPLE_INTRO}\n{json.dumps(output_model.example, ensure_ascii=False)}"
