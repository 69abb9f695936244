from r8a_repos.repositories.base import OrderRepository
from r8a_repos.steps import insert_row, select_row


class SqlOrderRepository(OrderRepository):
    async def add(self, order_id: str) -> str:
        self.stage(order_id)
        return await insert_row(self.table_name, order_id)

    async def get(self, order_id: str) -> str:
        return await select_row(self.table_name, order_id)
