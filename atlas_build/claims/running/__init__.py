"""Running a lesson's claims: reading `claims.yaml` (`file`), the kind registry with its
validation and time limits (`registry`, parameter errors in words in `messages`), the
per-lesson run that orders kinds, binding and coverage (`run`), what a claim that needs
another reports and proves (`dependents`, `facts`), and outcomes encoded for the cache
(`codec`).
"""
