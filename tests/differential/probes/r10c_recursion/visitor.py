"""A node tree and a visitor that finds visit_<kind> methods with getattr."""
from dataclasses import dataclass, field

from r10c_recursion.steps import raise_alert


@dataclass
class Node:
    kind: str
    text: str = ""
    children: list["Node"] = field(default_factory=list)


class Visitor:
    async def visit(self, node: Node) -> str:
        method = getattr(self, f"visit_{node.kind}", self.generic_visit)
        return await method(node)

    async def generic_visit(self, node: Node) -> str:
        return f"?{node.kind}"

    async def visit_group(self, node: Node) -> str:
        parts = [await self.visit(child) for child in node.children]
        return "(" + ",".join(parts) + ")"

    async def visit_leaf(self, node: Node) -> str:
        return node.text

    async def visit_alert(self, node: Node) -> str:
        return await raise_alert(node.text)


class QuietVisitor(Visitor):
    async def visit_alert(self, node: Node) -> str:
        return "muted:" + node.text
