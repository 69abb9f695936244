from r8a_repos.repositories.base import OrderRepository


class InMemoryOrderRepository(OrderRepository):
    rows: dict[str, str] = {}

    async def add(self, order_id: str) -> str:
        self.stage(order_id)
        self.rows[order_id] = "row:" + order_id
        return self.rows[order_id]

    async def get(self, order_id: str) -> str:
        return self.rows.get(order_id, "missing:" + order_id)
