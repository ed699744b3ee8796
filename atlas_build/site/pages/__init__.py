"""The site's pages, generated in memory: the docs tree MkDocs is handed.

`docs.generate_docs` makes every page: a lesson's (`lesson`: its content rendered and
sanitised by `markup`, `mathtext`, `sanitize` and `structures`, its `figures`, the
validation and metadata `panels`), the home and topic `indexes`, the report `summary`,
the Selftest page (`mutation`) and the code `reference`; `html` holds the helpers they
share, `pagecache` and `pageledger` what lets a build skip pages nothing changed for.

Nothing here imports MkDocs, Material, Python-Markdown, pymdown-extensions or the driver
(`site.mkdocs`), not even inside a function (tests/test_site_layout.py): a page can be
changed without reading MkDocs, and a MkDocs release cannot break one.
"""
