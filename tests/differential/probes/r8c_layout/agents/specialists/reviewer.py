"""The reviewer agent: two levels below the package root."""
from ...registry import action
from ...steps import review_draft


class Reviewer:
    def __init__(self, strict: bool = True) -> None:
        self.strict = strict

    async def review(self, text: str) -> str:
        if not self.strict:
            return "lgtm:" + text
        return await review_draft(text)


action("review")(review_draft)
