"""HTML -> Markdown (or plain text) with the standard library's html.parser.

Good enough for a model to read a page: headings, paragraphs, links (made absolute),
emphasis, inline code and code blocks, lists (nested, ordered), block quotes, simple
tables, images as their alt text. Scripts, styles, the head (but its title), templates,
SVG and forms' hidden parts are dropped. No dependency: a converter from PyPI would add
a package to every install for a few hundred lines of behaviour we can test here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser
from urllib.parse import urljoin

SKIP = frozenset(
    {
        "script",
        "style",
        "head",
        "noscript",
        "template",
        "svg",
        "canvas",
        "iframe",
        "object",
        "select",
        "button",
    }
)
VOID = frozenset(
    {
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "source",
        "track",
        "wbr",
    }
)
BLOCKS = frozenset(
    {
        "p",
        "div",
        "section",
        "article",
        "main",
        "header",
        "footer",
        "nav",
        "aside",
        "form",
        "figure",
        "figcaption",
        "dl",
        "dt",
        "dd",
        "address",
        "details",
        "summary",
        "body",
        "html",
        "table",
        "thead",
        "tbody",
        "tfoot",
        "caption",
        "fieldset",
        "center",
    }
)
HEADINGS = {f"h{n}": n for n in range(1, 7)}
_SPACES = re.compile(r"[ \t\n\r\f\v]+")
_BREAK_MARK = "\x00"  # a <br>, kept through whitespace collapsing
_BREAK = re.compile(" ?\x00 ?")


@dataclass
class _List:
    ordered: bool
    index: int = 0


class _Converter(HTMLParser):
    def __init__(self, base_url: str, markdown: bool) -> None:
        super().__init__(convert_charrefs=True)
        self.base_url, self.markdown = base_url, markdown
        self.blocks: list[
            tuple[str, str]
        ] = []  # (text, kind): finished blocks; kind "item"/"row" packs tight
        self.inline: list[str] = []  # the paragraph (or table cell) being read
        self.title: str | None = None
        self._title_parts: list[str] | None = None  # while inside <title>
        self._skip = 0  # depth inside elements whose content is dropped
        self._pre = 0
        self._quote = 0
        self._lists: list[_List] = []
        self._item_prefix: str | None = None
        self._heading = 0
        self._links: list[tuple[int, str]] = []  # (start in inline, href) of open <a>
        self._row: list[str] | None = None
        self._table_rows = 0
        self._group = (
            0  # counts top-level lists and tables: items of one pack tight, two lists do not
        )

    # -- output -----------------------------------------------------------------------------------

    def _mark(self, text: str) -> str:
        return text if self.markdown else ""

    def _flush(self) -> None:
        """End the current paragraph (or cell) and emit it as a block."""
        if self._row is not None:
            return
        text = _BREAK.sub(self._mark("  ") + "\n", _SPACES.sub(" ", "".join(self.inline)).strip())
        self.inline.clear()
        self._links.clear()
        if not text.strip():
            return
        if self._heading:
            text = self._mark("#" * self._heading + " ") + text
        kind = "block"
        if self._item_prefix is not None:
            text, kind = self._item_prefix + text, f"item{self._group}"
            self._item_prefix = None
        elif self._lists:
            text = "  " * len(self._lists) + text
        self._emit(text, kind)

    def _emit(self, text: str, kind: str = "block") -> None:
        if self._quote:
            text = "\n".join(self._mark("> " * self._quote) + line for line in text.split("\n"))
        self.blocks.append((text, kind))

    def result(self) -> str:
        self._flush()
        parts: list[str] = []
        previous = ""
        for text, kind in self.blocks:
            if parts:
                parts.append("\n" if kind == previous and kind != "block" else "\n\n")
            parts.append(text)
            previous = kind
        return "".join(parts).strip("\n") + ("\n" if parts else "")

    # -- parser callbacks -------------------------------------------------------------------------

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {k: v or "" for k, v in attrs}
        if tag == "title" and self.title is None:
            self._title_parts = []
        if tag in SKIP:
            self._skip += tag not in VOID
            return
        if self._skip:
            return
        if tag in HEADINGS:
            self._flush()
            self._heading = HEADINGS[tag]
        elif tag in BLOCKS:
            self._flush()
        elif tag == "br":
            self.inline.append("\n" if self._pre else _BREAK_MARK)
        elif tag == "hr":
            self._flush()
            self._emit(self._mark("---"))
        elif tag == "pre":
            self._flush()
            self._pre += 1
        elif tag == "blockquote":
            self._flush()
            self._quote += 1
        elif tag in ("ul", "ol", "menu"):
            self._flush()
            self._group += not self._lists
            self._lists.append(_List(ordered=tag == "ol"))
        elif tag == "li":
            self._flush()
            current = self._lists[-1] if self._lists else _List(ordered=False)
            current.index += 1
            bullet = f"{current.index}. " if current.ordered else "- "
            self._item_prefix = "  " * max(len(self._lists) - 1, 0) + bullet
        elif tag == "tr":
            self._flush()
            self._group += self._table_rows == 0
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self.inline.clear()
        elif tag == "a":
            self._links.append((len(self.inline), attributes.get("href", "")))
        elif tag in ("strong", "b"):
            self.inline.append(self._mark("**"))
        elif tag in ("em", "i"):
            self.inline.append(self._mark("*"))
        elif tag == "code" and not self._pre:
            self.inline.append(self._mark("`"))
        elif tag == "img":
            alt = attributes.get("alt", "").strip()
            if alt:
                self.inline.append(
                    f"![{alt}]({urljoin(self.base_url, attributes.get('src', ''))})"
                    if self.markdown
                    else alt
                )

    def handle_endtag(self, tag: str) -> None:
        if tag == "title" and self._title_parts is not None:
            self.title = _SPACES.sub(" ", "".join(self._title_parts)).strip() or None
            self._title_parts = None
        if tag in SKIP:
            self._skip = max(self._skip - 1, 0)
            return
        if self._skip:
            return
        if tag in HEADINGS:
            self._flush()
            self._heading = 0
        elif tag == "table":
            self._table_rows = 0
            self._flush()
        elif tag in BLOCKS or tag == "li":
            self._flush()
        elif tag == "pre" and self._pre:
            code = "".join(self.inline).strip("\n")
            self.inline.clear()
            self._pre -= 1
            if code.strip():
                self._emit(f"```\n{code}\n```" if self.markdown else code)
        elif tag == "blockquote" and self._quote:
            self._flush()
            self._quote -= 1
        elif tag in ("ul", "ol", "menu") and self._lists:
            self._flush()
            self._lists.pop()
        elif tag in ("td", "th") and self._row is not None:
            cell = _SPACES.sub(" ", "".join(self.inline).replace(_BREAK_MARK, " ")).strip()
            self._row.append(cell.replace("|", "\\|") if self.markdown else cell)
            self.inline.clear()
        elif tag == "tr" and self._row is not None:
            row, self._row = self._row, None
            if row:
                line = "| " + " | ".join(row) + " |" if self.markdown else "\t".join(row)
                if self.markdown and self._table_rows == 0:
                    line += "\n|" + " --- |" * len(row)
                self._emit(line, f"row{self._group}")
                self._table_rows += 1
        elif tag == "a" and self._links:
            start, href = self._links.pop()
            text = _SPACES.sub(" ", "".join(self.inline[start:])).strip()
            if (
                self.markdown
                and href
                and not href.lower().startswith(("javascript:", "data:"))
                and text
            ):
                self.inline[start:] = [f"[{text}]({urljoin(self.base_url, href)})"]
        elif tag in ("strong", "b"):
            self.inline.append(self._mark("**"))
        elif tag in ("em", "i"):
            self.inline.append(self._mark("*"))
        elif tag == "code" and not self._pre:
            self.inline.append(self._mark("`"))

    def handle_data(self, data: str) -> None:
        if self._title_parts is not None:
            self._title_parts.append(data)
            return
        if self._skip:
            return
        data = data.replace(_BREAK_MARK, "")
        self.inline.append(data if self._pre else _SPACES.sub(" ", data))


def convert(html: str, base_url: str = "", markdown: bool = True) -> tuple[str, str | None]:
    """(the page as Markdown or plain text, its title)."""
    converter = _Converter(base_url=base_url, markdown=markdown)
    converter.feed(html)
    converter.close()
    return converter.result(), converter.title
