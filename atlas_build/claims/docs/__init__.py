"""Claim-kind documentation generated from the kinds themselves: what each kind proves
and an example (`kinddocs`), rendered with the parameter models into the schema, the
page docs/claim-kinds.md and `atlas-build explain KIND` (`docgen`), so none can drift.
"""
