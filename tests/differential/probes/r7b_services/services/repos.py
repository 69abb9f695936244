"""Abstract repositories, concrete subclasses picked by an environment-like constant."""
import abc

from .. import config
from ..steps import memory_get, query_db


class Repository(abc.ABC):
    @abc.abstractmethod
    async def get(self, key: str) -> str: ...

    async def get_many(self, key: str) -> str:
        return await self.get(key + "1") + await self.get(key + "2")

    @classmethod
    def for_environment(cls, env: str) -> "Repository":
        for sub in cls.__subclasses__():
            if sub.ENV == env:
                return sub()
        raise LookupError(env)


class SqlRepository(Repository):
    ENV = "production"

    async def get(self, key: str) -> str:
        return await query_db(key)


class MemoryRepository(Repository):
    ENV = "test"

    async def get(self, key: str) -> str:
        return await memory_get(key)


REPOSITORIES = {"production": SqlRepository, "test": MemoryRepository}


def make_repository(env: str = config.ENVIRONMENT) -> Repository:
    return REPOSITORIES[env]()
