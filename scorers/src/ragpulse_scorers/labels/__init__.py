"""People's labels of requests (reviewers, end users, imports) and the judges measured against them."""
