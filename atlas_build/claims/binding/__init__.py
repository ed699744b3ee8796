"""Binding a claim's computed quantities to the numbers its quote states: finding the
quote in the lesson (`anchors`), comparing each stated number with its quantity
(`compare`), checking the author's `unit` and `tolerance` against the lesson (`options`),
and the binder that ties them together (`bind`). Kept apart from running so the one rule
for "this stated number agrees" is the same for every kind, quiz answers and inference.
"""
