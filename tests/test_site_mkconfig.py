"""site.mkconfig: a repository's mkdocs.yml is read without running code.

Each hostile configuration is tried end to end (`atlas-build build` in a repository that
holds it) and must leave its marker file unwritten, exit 1 and name the line."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from atlas_build.site.mkdocs import mkconfig

REPO = Path(__file__).resolve().parent.parent


def _repo(tmp_path: Path, extra: str = "", lesson: str = "rope") -> Path:
    root = tmp_path / "repo"
    (root / "content").mkdir(parents=True)
    shutil.copytree(REPO / "content" / lesson, root / "content" / lesson)
    (root / "mkdocs.yml").write_text(
        (REPO / "mkdocs.yml").read_text(encoding="utf-8") + extra, encoding="utf-8"
    )
    return root


def _problems(root: Path, trust: bool = False) -> list[str]:
    return [
        f"{p.line}:{p.column} {p.message}" for p in mkconfig.check(root / "mkdocs.yml", trust=trust)
    ]


def _line_of(root: Path, needle: str) -> int:
    text = (root / "mkdocs.yml").read_text(encoding="utf-8")
    return text[: text.index(needle)].count("\n") + 1


def test_the_plain_configuration_is_accepted(tmp_path: Path) -> None:
    assert _problems(_repo(tmp_path)) == []


def test_object_tags_are_refused_where_they_are_written(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    root = _repo(tmp_path, f'extra:\n  boom: !!python/object/apply:os.system ["touch {marker}"]\n')
    found = _problems(root)
    assert found == [
        f"{_line_of(root, '!!python')}:9 !!python/object/apply:os.system is not allowed"
    ]
    for tag in ("!!python/object/new:os.system", "!!python/module:os", "!custom"):
        other = _repo(tmp_path / tag.strip("!").replace("/", "_"), f"extra:\n  x: {tag} [1]\n")
        assert len(_problems(other, trust=True)) == 1, tag  # trust never allows tags
    assert not marker.exists()


def test_what_mkdocs_configs_legitimately_use_is_read(tmp_path: Path) -> None:
    extra = (
        "  - pymdownx.emoji:\n"
        "      emoji_index: !!python/name:material.extensions.emoji.twemoji\n"
        "      emoji_generator: !!python/name:material.extensions.emoji.to_svg\n"
        "  - pymdownx.superfences:\n"
        "      custom_fences:\n"
        "        - name: mermaid\n"
        "          class: mermaid\n"
        "          format: !!python/name:pymdownx.superfences.fence_code_format\n"
    )
    root = _repo(tmp_path)
    text = (root / "mkdocs.yml").read_text(encoding="utf-8")
    text = text.replace("  - toc:\n      permalink: true\n", "  - toc:\n      permalink: true\n"
                        "      slugify: !!python/object/apply:pymdownx.slugs.slugify\n"
                        "        kwds: {case: lower}\n" + extra)  # fmt: skip
    text += "extra:\n  version: !ENV [ATLAS_TEST_UNSET_VARIABLE, 'dev']\n"
    (root / "mkdocs.yml").write_text(text, encoding="utf-8")
    assert _problems(root) == []
    import yaml

    loaded = yaml.load(text, Loader=mkconfig.SafeConfigLoader)
    assert callable(loaded["markdown_extensions"][2]["pymdownx.emoji"]["emoji_generator"])


def test_hooks_plugins_extensions_and_scripts_need_trust(tmp_path: Path) -> None:
    root = _repo(
        tmp_path,
        "hooks:\n  - hooks.py\nextra_javascript:\n  - evil.js\n",
    )
    text = (root / "mkdocs.yml").read_text(encoding="utf-8")
    text = text.replace("plugins:\n  - search\n", "plugins:\n  - search\n  - material/privacy\n")
    text = text.replace("  - attr_list\n", "  - attr_list\n  - evilmodule\n")
    (root / "mkdocs.yml").write_text(text, encoding="utf-8")
    found = _problems(root)
    assert len(found) == 4, found
    assert any("hooks:" in f for f in found)
    assert any("'material/privacy'" in f for f in found)
    assert any("'evilmodule'" in f for f in found)
    assert any("extra_javascript" in f for f in found)
    assert _problems(root, trust=True) == []


def test_inherit_and_custom_dir_stay_in_the_repository(tmp_path: Path) -> None:
    outside = tmp_path / "outside.yml"
    outside.write_text("site_name: x\n", encoding="utf-8")
    root = _repo(tmp_path, "INHERIT: ../outside.yml\n")
    assert any("outside the repository" in f for f in _problems(root))
    (root / "base.yml").symlink_to(outside)
    text = (root / "mkdocs.yml").read_text(encoding="utf-8").replace("../outside.yml", "base.yml")
    (root / "mkdocs.yml").write_text(text, encoding="utf-8")
    assert any("outside the repository" in f for f in _problems(root))

    themed = _repo(tmp_path / "t", "")
    text = (themed / "mkdocs.yml").read_text(encoding="utf-8")
    (themed / "mkdocs.yml").write_text(
        text.replace("  font: false", "  custom_dir: overrides\n  font: false"), encoding="utf-8"
    )
    (themed / "overrides").mkdir()
    (themed / "overrides" / "main.html").write_text("{% extends 'base.html' %}", encoding="utf-8")
    assert _problems(themed) == []
    (themed / "overrides" / "env.txt").symlink_to("/proc/self/environ")
    assert any("env.txt" in f and "link" in f for f in _problems(themed))


def test_mkdocs_itself_reads_no_object_tags_once_installed(tmp_path: Path) -> None:
    """Behind `check`: MkDocs' loader in this process is the safe one, so a file changed
    after the check cannot run code either."""
    from mkdocs.config import load_config
    from mkdocs.exceptions import ConfigurationError, MkDocsException

    marker = tmp_path / "pwned"
    root = _repo(tmp_path, f'extra:\n  boom: !!python/object/apply:os.system ["touch {marker}"]\n')
    (root / "build" / "docs").mkdir(parents=True)
    mkconfig.install()
    with pytest.raises(ConfigurationError, match="not allowed"):
        load_config(config_file=str(root / "mkdocs.yml"))
    hooked = _repo(tmp_path / "h", "hooks:\n  - hooks.py\n")
    (hooked / "hooks.py").write_text(f"open({str(marker)!r}, 'w')\n", encoding="utf-8")
    (hooked / "build" / "docs").mkdir(parents=True)
    with pytest.raises(MkDocsException):  # MkDocs logs the reason, then aborts
        load_config(config_file=str(hooked / "mkdocs.yml"))
    assert not marker.exists()


def test_repository_templates_render_in_the_sandbox() -> None:
    from jinja2.exceptions import SecurityError
    from mkdocs.theme import Theme

    assert mkconfig.templates_untrusted("overrides")
    assert not mkconfig.templates_untrusted(str(mkconfig.THEME_DIR))
    mkconfig.sandbox_templates()
    env = Theme(name="material").get_env()
    with pytest.raises(SecurityError):
        env.from_string("{{ ''.__class__.__mro__[1].__subclasses__() }}").render()
    assert env.from_string("{{ 'a' | upper }}").render() == "A"


@pytest.mark.parametrize(
    "extra",
    [
        'extra:\n  boom: !!python/object/apply:os.system ["touch {marker}"]\n',
        "hooks:\n  - hooks.py\n",
    ],
)
def test_build_refuses_a_configuration_that_runs_code(
    tmp_path: Path, run_script: Callable[..., Any], extra: str
) -> None:
    marker = tmp_path / "pwned"
    root = _repo(tmp_path, extra.format(marker=marker))
    (root / "hooks.py").write_text(f"open({str(marker)!r}, 'w')\n", encoding="utf-8")
    for cache in (["--no-cache"], ["--cache-dir", str(tmp_path / "cache")]):
        result = run_script("build", "content/", *cache, cwd=root, timeout=120)
        assert result.code == 1, result.err
        assert "error A506" in result.err
        assert "mkdocs.yml:" in result.err
        assert not marker.exists()
        assert not (root / "site").exists()


def test_trust_config_lets_reviewed_hooks_run(
    tmp_path: Path, run_script: Callable[..., Any]
) -> None:
    marker = tmp_path / "ran"
    root = _repo(tmp_path, "hooks:\n  - hooks.py\n")
    (root / "hooks.py").write_text(f"open({str(marker)!r}, 'w')\n", encoding="utf-8")
    result = run_script("build", "content/", "--no-cache", "--trust-config", cwd=root, timeout=120)
    assert result.code == 0, result.err
    assert marker.exists()


def test_no_process_of_a_build_imports_the_repository(
    tmp_path: Path, run_script: Callable[..., Any]
) -> None:
    """Packages at the repository root that shadow the standard library and atlas-build's
    own dependencies are imported by no process of a build (the command, its MkDocs
    child, pool workers)."""
    marker = tmp_path / "imported"
    root = _repo(tmp_path)
    for name in ("multiprocessing", "json", "yaml", "mkdocs", "concurrent", "encodings_x"):
        (root / name).mkdir()
        (root / name / "__init__.py").write_text(
            f"open({str(marker)!r}, 'a').write({name!r})\nraise SystemExit('shadowed')\n",
            encoding="utf-8",
        )
    for args in (["--no-cache", "-j", "2"], ["--cache-dir", str(tmp_path / "c"), "-j", "2"]):
        result = run_script("build", "content/", *args, cwd=root, timeout=180)
        assert result.code == 0, result.err
    assert not marker.exists(), marker.read_text(encoding="utf-8")
    assert os.environ.get("PYTHONSAFEPATH") in (None, "", "1")
