from collections import Counter


class Inventory:
    def __init__(self) -> None:
        self.stock: Counter[str] = Counter()

    def add(self, sku: str, qty: int) -> None:
        self.stock[sku] += qty

    def remove(self, sku: str, qty: int) -> None:
        self.stock[sku] -= qty
