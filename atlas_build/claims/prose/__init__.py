"""Reading what a lesson's prose states: every number with its exact value and offsets
(`numbers`), which of them the documented rules exempt (`exempt`), the unit a table
header gives its cells (`tables`), and worked arithmetic (`arithmetic`, with units in
`worked`), judged on its own. These modules know no claim: they read text, so claims,
coverage and inference all start from the same reading.
"""
