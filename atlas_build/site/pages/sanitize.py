"""Lesson HTML is untrusted: one allowlist sanitiser (nh3, i.e. ammonia) for all of it.

Everything a lesson's markdown turns into (its raw HTML included) goes through
`clean()`. Scripts, styles, frames, event handlers and `javascript:`/`data:` URLs
cannot survive: only the tags and attributes listed here do, and links keep only
http(s), mailto or relative targets. The MathML that KaTeX produces passes through
the same filter, so a formula cannot smuggle markup either.

`id` and `class` need care: an author could otherwise forge the ids the site links
to (`claim-...`, `section-...`) or borrow the theme's classes. The renderer marks
the ids it sets itself with `TRUSTED` (a private-use character that `untrusted()`
strips from lesson text first); ids without it are dropped, and classes are kept
only from a short list.
"""

from __future__ import annotations

import re
from functools import lru_cache

import nh3

TRUSTED = "\U0010fffd"
_PRIVATE = re.compile("[\U00100000-\U0010ffff]")

HTML_TAGS = frozenset(
    """a abbr b blockquote br caption cite code dd del details dfn div dl dt em figcaption
    figure h1 h2 h3 h4 h5 h6 hr i img ins kbd li mark ol p pre q s samp small span strong
    sub summary sup table tbody td tfoot th thead time tr u ul var wbr""".split()
)
MATHML_TAGS = frozenset(
    """math semantics annotation mrow mi mo mn ms mtext mspace msub msup msubsup munder
    mover munderover mfrac msqrt mroot mstyle mtable mtr mtd mlabeledtr mpadded mphantom
    menclose merror mmultiscripts mprescripts none""".split()
)
_DROP_WITH_CONTENT = frozenset(
    {"script", "style", "iframe", "frame", "frameset", "object", "embed", "noscript",
     "template", "svg", "textarea", "select", "title", "xmp", "noembed", "noframes"}
)  # fmt: skip
_MATHML_ATTRIBUTES = frozenset(
    """xmlns display mathvariant width height depth scriptlevel displaystyle columnalign
    columnspacing rowspacing columnlines rowlines rowalign fence separator stretchy
    encoding lspace rspace accent accentunder movablelimits symmetric minsize maxsize
    largeop linethickness notation voffset mathcolor mathbackground mathsize form
    framespacing frame side minlabelspacing align""".split()
)
_ATTRIBUTES: dict[str, set[str]] = {
    "*": {"id", "class", "title", "lang", "dir"},
    "a": {"href"},
    "img": {"src", "alt", "width", "height"},
    "ol": {"start", "reversed"},
    "li": {"value"},
    "td": {"colspan", "rowspan", "style"},
    "th": {"colspan", "rowspan", "scope", "style"},
    "details": {"open"},
    "time": {"datetime"},
    "q": {"cite"},
    "blockquote": {"cite"},
    **{tag: set(_MATHML_ATTRIBUTES) for tag in MATHML_TAGS},
    "math": set(_MATHML_ATTRIBUTES) | {"aria-label"},  # the TeX source, for assistive technology
}
_CLASSES = {
    "span": re.compile(r"katex(-display)?"),
    "code": re.compile(r"language-[\w+.#-]{1,40}|atlas-math-error"),
    "mark": re.compile(r"atlas-claim( atlas-claim-(pass|fail|error|skipped))?"),
    "div": re.compile(r"atlas-(math|figure)[\w-]*"),
}
_COLOR = re.compile(r"#[0-9a-fA-F]{3,8}|[a-zA-Z]{1,20}")


def untrusted(text: str) -> str:
    """Lesson text with the renderer's private-use markers replaced, so none can be forged."""
    return _PRIVATE.sub("\ufffd", text)


def _attribute(tag: str, name: str, value: str) -> str | None:
    if name == "id":
        return value[len(TRUSTED) :] if value.startswith(TRUSTED) else None
    if name == "class":
        pattern = _CLASSES.get(tag)
        return value if pattern is not None and pattern.fullmatch(value) else None
    if name in ("mathcolor", "mathbackground"):
        return value if _COLOR.fullmatch(value) else None
    return value


@lru_cache(maxsize=1)
def _cleaner() -> nh3.Cleaner:
    return nh3.Cleaner(
        tags=set(HTML_TAGS | MATHML_TAGS),
        clean_content_tags=set(_DROP_WITH_CONTENT),
        attributes={tag: set(names) for tag, names in _ATTRIBUTES.items()},
        attribute_filter=_attribute,
        url_schemes={"http", "https", "mailto"},
        filter_style_properties={"text-align"},
        strip_comments=True,
        link_rel="noopener noreferrer",
    )


def clean(html: str) -> str:
    """Sanitised HTML: only allowlisted tags/attributes, safe URLs, trusted ids."""
    return _cleaner().clean(html)


def trusted_id(value: str) -> str:
    """An id attribute value the sanitiser will keep (see module docstring)."""
    return TRUSTED + value
