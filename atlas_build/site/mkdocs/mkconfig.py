"""A lesson repository's `mkdocs.yml` is untrusted input: read it without running code.

MkDocs reads its configuration with PyYAML's full `Loader`, which builds any Python
object a tag names (`!!python/object/apply:os.system [...]` runs a command), loads the
Python files listed under `hooks:`, and imports every markdown extension and plugin the
file names. A repository under review must not get to run code that way, so:

- `check` reads the file (and the files it `INHERIT`s) as YAML nodes, which constructs
  nothing, and refuses with a located finding: a tag other than YAML's own, `!ENV`,
  `!relative`, and `!!python/name:` / `!!python/object/apply:` naming a callable of
  `NAMES` / `APPLY` (the emoji, fence and slug functions MkDocs configs use); `hooks:`;
  plugins other than `PLUGINS` and markdown extensions other than Python-Markdown's,
  PyMdown's and Material's; an `INHERIT` that leaves the repository or is not a regular
  file. `--trust-config` lifts the last three (they are code the author chose to run),
  never the tag rule.
- `install` replaces MkDocs' YAML loader in this process with one built on PyYAML's
  `SafeLoader` that knows the same allowed tags and nothing else, so a file changed
  after `check` read it still cannot construct an object.
- `sandbox_templates` renders the theme's Jinja templates (a repository's `custom_dir`
  overrides among them) in Jinja's sandbox, where a template cannot reach Python
  internals (`''.__class__.__mro__`).
"""

from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

YAML = "tag:yaml.org,2002:"
PLAIN_TAGS = frozenset(
    YAML + name
    for name in ("str", "int", "float", "bool", "null", "map", "seq", "timestamp", "merge")
)
NAME_TAG = YAML + "python/name:"
APPLY_TAG = YAML + "python/object/apply:"
NAMES = frozenset(
    {
        "material.extensions.emoji.twemoji",
        "material.extensions.emoji.to_svg",
        "pymdownx.emoji.twemoji",
        "pymdownx.emoji.gemoji",
        "pymdownx.emoji.emojione",
        "pymdownx.emoji.to_svg",
        "pymdownx.emoji.to_png",
        "pymdownx.emoji.to_alt",
        "pymdownx.emoji.to_png_sprite",
        "pymdownx.emoji.to_svg_sprite",
        "pymdownx.superfences.fence_code_format",
        "pymdownx.superfences.fence_div_format",
        "pymdownx.arithmatex.arithmatex_fenced_format",
        "pymdownx.arithmatex.arithmatex_inline_format",
        "pymdownx.slugs.uslugify",
        "pymdownx.slugs.uslugify_encoded",
        "pymdownx.slugs.gfm",
        "pymdownx.slugs.gfm_encoded",
        "markdown.extensions.toc.slugify",
        "markdown.extensions.toc.slugify_unicode",
    }
)
APPLY = frozenset({"pymdownx.slugs.slugify"})
PLUGINS = frozenset({"search", "material/search", "material/tags"})
"""Plugins that read only the docs tree and reach no network; `material/privacy` and
`material/social` download, `material/optimize` runs programs, `material/projects`
builds other configurations: those need `--trust-config`."""
EXTENSION_PACKAGES = ("markdown.extensions.", "pymdownx.", "material.extensions.")
MARKDOWN_SHORT = frozenset(
    {
        "abbr", "admonition", "attr_list", "codehilite", "def_list", "extra", "fenced_code",
        "footnotes", "legacy_attrs", "legacy_em", "md_in_html", "meta", "nl2br",
        "sane_lists", "smarty", "tables", "toc", "wikilinks",
    }
)  # fmt: skip
MAX_INHERIT = 8
MAX_BYTES = 1 << 20
MAX_THEME_FILES = 10_000
THEME_DIR = Path(__file__).resolve().parent.parent / "theme"  # site/theme, package data
"""atlas-build's own Material overrides: its templates are trusted, a repository's are not."""


@dataclass(frozen=True)
class Problem:
    """A refused part of the configuration, at 1-based `line`:`column` of `path`."""

    path: Path
    line: int
    column: int
    message: str
    trustable: bool = False  # `--trust-config` allows it


def _at(path: Path, node: yaml.Node | None, message: str, trustable: bool = False) -> Problem:
    mark = node.start_mark if node is not None else None
    line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
    return Problem(path, line, column, message, trustable)


def _tag_problem(node: yaml.Node) -> str | None:
    tag = node.tag or ""
    if tag in PLAIN_TAGS or tag in ("!ENV", "!relative"):
        return None
    if tag.startswith(NAME_TAG):
        name = tag[len(NAME_TAG) :]
        return None if name in NAMES else f"!!python/name:{name} is not an allowed callable"
    if tag.startswith(APPLY_TAG):
        name = tag[len(APPLY_TAG) :]
        return None if name in APPLY else f"!!python/object/apply:{name} is not allowed"
    shown = "!!" + tag[len(YAML) :] if tag.startswith(YAML) else tag
    return f"the YAML tag {shown} would build a Python object; only YAML's own tags, !ENV, " \
        "!relative and the allowed !!python/name: callables are read"  # fmt: skip


def _walk(node: yaml.Node, path: Path, found: list[Problem]) -> None:
    todo = [node]
    while todo:
        item = todo.pop()
        problem = _tag_problem(item)
        if problem is not None:
            found.append(_at(path, item, problem))
            continue
        if isinstance(item, yaml.MappingNode):
            for key, value in item.value:
                todo += [value, key]
        elif isinstance(item, yaml.SequenceNode):
            todo += list(reversed(item.value))


def _entry(mapping: yaml.MappingNode, name: str) -> yaml.Node | None:
    for key, value in mapping.value:
        if isinstance(key, yaml.ScalarNode) and key.value == name:
            return value
    return None


def _names(node: yaml.Node | None) -> list[tuple[str, yaml.Node]]:
    """The names a `plugins` or `markdown_extensions` entry lists (a list of names or of
    one-key mappings, or a mapping)."""
    if isinstance(node, yaml.MappingNode):
        return [(k.value, k) for k, _ in node.value if isinstance(k, yaml.ScalarNode)]
    if not isinstance(node, yaml.SequenceNode):
        return []
    names: list[tuple[str, yaml.Node]] = []
    for item in node.value:
        if isinstance(item, yaml.ScalarNode):
            names.append((item.value, item))
        elif isinstance(item, yaml.MappingNode):
            names += [(k.value, k) for k, _ in item.value if isinstance(k, yaml.ScalarNode)]
    return names


def _extension_allowed(name: str) -> bool:
    return name in MARKDOWN_SHORT or name.startswith(EXTENSION_PACKAGES)


def _code(mapping: yaml.MappingNode, path: Path, found: list[Problem]) -> None:
    """Entries that make MkDocs run code from the repository or the network."""
    hooks = _entry(mapping, "hooks")
    if hooks is not None:
        found.append(_at(path, hooks, "hooks: runs the repository's Python files", True))
    for name, node in _names(_entry(mapping, "plugins")):
        if name not in PLUGINS:
            allowed = ", ".join(sorted(PLUGINS))
            found.append(_at(path, node, f"plugin {name!r} is not one of {allowed}", True))
    scripts = _entry(mapping, "extra_javascript")
    if isinstance(scripts, yaml.SequenceNode) and scripts.value:
        found.append(_at(path, scripts, "extra_javascript puts the repository's script on every "
                         "page", True))  # fmt: skip
    for name, node in _names(_entry(mapping, "markdown_extensions")):
        if not _extension_allowed(name):
            found.append(
                _at(
                    path,
                    node,
                    f"markdown extension {name!r} is not Python-Markdown's, "
                    "PyMdown's or Material's",
                    True,
                )  # fmt: skip
            )


def _theme(mapping: yaml.MappingNode, path: Path, root: Path, found: list[Problem]) -> None:
    """A `custom_dir` is published: it must lie in the repository and hold only regular
    files and folders there (a link to `/proc/self/environ` would publish the secrets)."""
    theme = _entry(mapping, "theme")
    folder = _entry(theme, "custom_dir") if isinstance(theme, yaml.MappingNode) else None
    if not isinstance(folder, yaml.ScalarNode) or not folder.value:
        return
    base = path.parent / folder.value
    if not _inside(base, root) or base.is_symlink():
        found.append(_at(path, folder, f"theme.custom_dir {folder.value!r} is a link or "
                         "outside the repository"))  # fmt: skip
        return
    for count, entry in enumerate(sorted(base.rglob("*")) if base.is_dir() else []):
        if count >= MAX_THEME_FILES:
            found.append(_at(path, folder, f"theme.custom_dir holds over {MAX_THEME_FILES} files"))
            return
        if entry.is_symlink() or not (entry.is_file() or entry.is_dir()):
            shown = entry.relative_to(base)
            found.append(_at(path, folder, f"theme.custom_dir holds {shown}, which is a link "
                             "or not a regular file"))  # fmt: skip


def _inside(path: Path, root: Path) -> bool:
    try:
        path.resolve().relative_to(root.resolve())
    except (OSError, ValueError, RuntimeError):
        return False
    return True


def _regular(path: Path, root: Path) -> str | None:
    """Why `path` cannot be read as a configuration file of the repository (None: it can):
    it must resolve inside `root` to a regular file of bounded size."""
    if not _inside(path, root):
        return "is outside the repository"
    try:
        if not path.resolve().is_file():
            return "is not a regular file"
        if path.stat().st_size > MAX_BYTES:
            return f"is larger than {MAX_BYTES} bytes"
    except OSError as error:
        return f"cannot be read ({error.strerror})"
    return None


def _compose(path: Path) -> tuple[yaml.Node | None, Problem | None]:
    try:
        return yaml.compose(path.read_text(encoding="utf-8"), Loader=yaml.SafeLoader), None
    except (OSError, UnicodeDecodeError) as error:
        return None, Problem(path, 1, 1, f"cannot read the configuration: {error}")
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        return None, Problem(path, line, column, f"not valid YAML: {error}")


def check(config: Path, *, root: Path | None = None, trust: bool = False) -> list[Problem]:
    """What in `config` and the files it inherits MkDocs must not be handed; empty when
    the configuration is safe to load (`trust`: hooks, plugins and extensions allowed).
    `root`: the repository (default: the folder `config` is in, as named, not followed)."""
    root = root if root is not None else config.absolute().parent
    found: list[Problem] = []
    path, seen = config, set[Path]()
    why = _regular(config, root)
    if why is not None:
        return [Problem(config, 1, 1, f"the MkDocs configuration {config} {why}")]
    for _ in range(MAX_INHERIT + 1):
        node, problem = _compose(path)
        if problem is not None:
            found.append(problem)
        seen.add(path.resolve())
        if not isinstance(node, yaml.MappingNode):
            if node is not None:
                _walk(node, path, found)
            break
        _walk(node, path, found)
        _code(node, path, found)
        _theme(node, path, root, found)
        parent = _entry(node, "INHERIT")
        if parent is None:
            break
        if not isinstance(parent, yaml.ScalarNode) or not parent.value:
            found.append(_at(path, parent, "INHERIT must name a file"))
            break
        following = path.parent / parent.value
        why = _regular(following, root)
        if why is None and following.resolve() in seen:
            why = "is inherited twice (a cycle)"
        if why is not None:
            found.append(_at(path, parent, f"INHERIT {parent.value!r} {why}"))
            break
        path = following
    else:
        found.append(Problem(config, 1, 1, f"more than {MAX_INHERIT} levels of INHERIT"))
    return [p for p in found if not (trust and p.trustable)]


class _Refused(yaml.constructor.ConstructorError):
    pass


def _construct_name(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> Any:
    if suffix not in NAMES:
        raise _Refused(None, None, f"!!python/name:{suffix} is not allowed", node.start_mark)
    module, _, name = suffix.rpartition(".")
    return getattr(importlib.import_module(module), name)


def _construct_apply(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> Any:
    if suffix not in APPLY:
        message = f"!!python/object/apply:{suffix} is not allowed"
        raise _Refused(None, None, message, node.start_mark)
    args: list[Any] = []
    kwds: dict[str, Any] = {}
    if isinstance(node, yaml.SequenceNode):
        args = loader.construct_sequence(node, deep=True)
    elif isinstance(node, yaml.MappingNode):
        value = loader.construct_mapping(node, deep=True)
        args, kwds = list(value.get("args", [])), dict(value.get("kwds", {}))
    module, _, name = suffix.rpartition(".")
    return getattr(importlib.import_module(module), name)(*args, **kwds)


def _refuse(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> Any:
    raise _Refused(None, None, f"the YAML tag {node.tag} is not allowed", node.start_mark)


class SafeConfigLoader(yaml.SafeLoader):
    """PyYAML's `SafeLoader` plus the tags MkDocs configurations legitimately use."""


def _construct_env(loader: yaml.SafeLoader, node: yaml.Node) -> Any:
    import yaml_env_tag

    return yaml_env_tag.construct_env_tag(loader, node)


SafeConfigLoader.add_constructor("!ENV", _construct_env)


def _construct_relative(loader: yaml.SafeLoader, node: yaml.Node) -> Any:
    """`!relative` outside MkDocs (which resolves it against the page): its text."""
    return loader.construct_scalar(node) if isinstance(node, yaml.ScalarNode) else ""


SafeConfigLoader.add_constructor("!relative", _construct_relative)
SafeConfigLoader.add_multi_constructor(NAME_TAG, _construct_name)
SafeConfigLoader.add_multi_constructor(APPLY_TAG, _construct_apply)
SafeConfigLoader.add_multi_constructor("", _refuse)


def _loader(loader: Any = None, config: Any = None) -> type[yaml.SafeLoader]:
    """`mkdocs.utils.yaml.get_yaml_loader` on `SafeConfigLoader` (its `loader` argument,
    PyYAML's full loader by default, is ignored on purpose)."""
    from mkdocs.utils import yaml as mkyaml

    class Loader(SafeConfigLoader):
        pass

    if config is not None:
        constructor = functools.partial(mkyaml._construct_dir_placeholder, config)
        Loader.add_constructor("!relative", constructor)
    return Loader


def _no_hooks(self: Any, name: str, path: str) -> Any:
    from mkdocs.config.base import ValidationError

    raise ValidationError(f"hook {name!r} ({path}) runs the repository's Python: --trust-config")


_LOAD_HOOK: Any = None


def install(trust: bool = False) -> None:
    """Make MkDocs read every configuration of this process with `SafeConfigLoader`, and
    unless `trust`, refuse to load `hooks:` (a second line behind `check`)."""
    from mkdocs.config import config_options, defaults
    from mkdocs.utils import yaml as mkyaml

    global _LOAD_HOOK
    if _LOAD_HOOK is None:
        _LOAD_HOOK = config_options.Hooks._load_hook

    mkyaml.get_yaml_loader = _loader
    defaults.get_yaml_loader = _loader
    if not trust:
        config_options.Hooks._load_hook = _no_hooks  # type: ignore[assignment,method-assign]
    elif config_options.Hooks._load_hook is _no_hooks:
        config_options.Hooks._load_hook = _LOAD_HOOK  # type: ignore[method-assign]


def templates_untrusted(custom_dir: str | None) -> bool:
    """The theme reads templates from the repository (a `custom_dir` not atlas-build's)."""
    return bool(custom_dir) and Path(str(custom_dir)).resolve() != THEME_DIR


@functools.cache
def sandbox_templates() -> None:
    """Render every theme's templates in Jinja's sandbox (same loader, filters, globals).

    Only when the repository brings templates (`templates_untrusted`): the sandbox checks
    every attribute a template reads, which costs time on each of a thousand pages."""
    from jinja2.sandbox import SandboxedEnvironment
    from mkdocs import theme

    original = theme.Theme.get_env

    def get_env(self: Any) -> Any:
        plain = original(self)
        env = SandboxedEnvironment(
            loader=plain.loader,
            auto_reload=plain.auto_reload,
            extensions=list(plain.extensions.keys()),
            autoescape=plain.autoescape,
        )
        env.filters.update(plain.filters)
        env.globals.update(plain.globals)
        env.tests.update(plain.tests)
        env.policies.update(plain.policies)
        return env

    theme.Theme.get_env = get_env  # type: ignore[method-assign]
