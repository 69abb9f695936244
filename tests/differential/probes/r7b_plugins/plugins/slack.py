from ..registry import channel, plugin_class
from ..steps import slack_post


@channel("slack")
async def notify_slack(text: str) -> str:
    return await slack_post(text)


@plugin_class
class SlackPlugin:
    name = "slack"
    deliver = slack_post
