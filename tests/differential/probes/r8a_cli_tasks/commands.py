"""The application's command line, registered with decorators."""
from agent_framework import step

from r8a_cli_tasks.framework.cli import Group
from r8a_cli_tasks.steps import health_status, list_users, run_migrations, sync_accounts

cli = Group("manage", help="Management commands")
db = cli.group("db", help="Database maintenance")


@cli.command()
async def sync(account: str) -> str:
    return await sync_accounts(account)


@cli.command()
async def status(name: str) -> str:
    return await health_status(name)


@cli.command("list-users", aliases=("ls", "users"))
async def list_users_command(prefix: str, limit: str = "10") -> str:
    return await list_users(prefix) + ":" + limit


@db.command()
async def migrate(target: str, dry_run: bool = False) -> str:
    if dry_run:
        return "would migrate " + target
    return await run_migrations(target)


@cli.command("export")
@step
async def export_table(table: str) -> str:
    return "exported:" + table
