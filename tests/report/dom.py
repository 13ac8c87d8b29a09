"""A tiny DOM for report tests: the page parsed with the stdlib parser, queried by tag, class and attribute."""

from html.parser import HTMLParser
from typing import Dict, Iterator, List, Optional, Union

VOID = {"meta", "br", "img", "input", "hr", "link", "line", "rect"}


class Node:
    def __init__(self, tag: str, attrs: Dict[str, Optional[str]], parent: Optional["Node"]) -> None:
        self.tag = tag
        self.attrs = attrs
        self.parent = parent
        self.children: List["Node"] = []
        self._order: List[Union["Node", str]] = []  # children and text, in document order

    @property
    def classes(self) -> List[str]:
        return (self.attrs.get("class") or "").split()

    @property
    def text(self) -> str:
        return "".join(self._text_parts())

    def _text_parts(self) -> Iterator[str]:
        for item in self._order:
            if isinstance(item, Node):
                yield from item._text_parts()
            else:
                yield item

    def iter(self) -> Iterator["Node"]:
        for c in self.children:
            yield c
            yield from c.iter()

    def find_all(self, tag: Optional[str] = None, cls: Optional[str] = None, **attrs: str) -> List["Node"]:
        return [n for n in self.iter()
                if (tag is None or n.tag == tag) and (cls is None or cls in n.classes)
                and all(n.attrs.get(k.replace("_", "-")) == v for k, v in attrs.items())]

    def find(self, tag: Optional[str] = None, cls: Optional[str] = None, **attrs: str) -> "Node":
        found = self.find_all(tag, cls, **attrs)
        assert found, f"no <{tag} class={cls} {attrs}> in the page"
        return found[0]


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", {}, None)
        self.cur = self.root

    def handle_starttag(self, tag, attrs):
        node = Node(tag, dict(attrs), self.cur)
        self.cur.children.append(node)
        self.cur._order.append(node)
        if tag not in VOID:
            self.cur = node

    def handle_endtag(self, tag):
        n = self.cur
        while n is not self.root and n.tag != tag:
            n = n.parent  # type: ignore[assignment]
        if n is not self.root:
            self.cur = n.parent  # type: ignore[assignment]

    def handle_data(self, data):
        self.cur._order.append(data)


def parse(page: str) -> Node:
    b = _Builder()
    b.feed(page)
    return b.root
