"""What a case's run comes to: its result (``results``: outcome, checks, diagnostics) and the judge
that weighs it against the known deviations (``expectations``). Read by the scheduling and every
front end; imports nothing from them."""
