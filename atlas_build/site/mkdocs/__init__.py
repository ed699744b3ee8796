"""The code that drives MkDocs: the docs tree in, the published site out.

`build.build_site` writes the docs tree (`docsfolder`), runs MkDocs in a child process
(`child`, talking to the build in `protocol` messages) or skips it when nothing changed
(`state`, and `uptodate` for a whole build), checks the links of what MkDocs made
(`linkcheck`) and swaps it in (`publish`, into a recycled folder: `tree`). `serve`
previews the same build with live reload.

`incremental.build` is MkDocs' own build, with the pages whose inputs did not change
taken from the cache (`pagestore`, keyed by `mkcontext`) after the configuration was
loaded (`prepared`, checked first by `mkconfig`), and the pages missing from it laid out
in forked workers first (`prerender`). What reaches into MkDocs', Material's and
Python-Markdown's internals to do so is in `speedups`.
"""
