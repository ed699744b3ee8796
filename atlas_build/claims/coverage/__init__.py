"""What a lesson's checks proved: a status for every relation of every display equation
(`relations`) and of inline math (`inline`), a dimension status from the symbol table
(`dimensions`), and a class for every number of the prose, summed up as the lesson's
verification (`verification`). It reads outcomes and never runs a claim, so what a report
says is exactly what ran.
"""
