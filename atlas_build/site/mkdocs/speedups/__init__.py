"""What the driver replaces inside MkDocs, Material and Python-Markdown while it runs.

Each module here leans on internals that no release promises to keep: `patches` wraps
MkDocs' per-page build steps (private functions of `mkdocs.commands.build`) to reuse
cached pages; `htmlfeed` feeds MkDocs' and Material's `HTMLParser`s with one regular
expression; `rawblocks` steps Python-Markdown's raw-HTML block parser over plain blocks;
`searchparser` is Material's search `Parser` without its set work. They run only on the
versions of `mkcontext.SUPPORTED` (pinned in pyproject.toml), and each has a test that
compares its output with the original's, also on random input.
"""
