"""A fake clock counted in minutes since midnight, so nothing depends on the wall clock."""


class FakeClock:
    def __init__(self, minute: int = 0) -> None:
        self.minute = minute

    def now(self) -> int:
        return self.minute

    def advance(self, minutes: int = 1) -> int:
        self.minute += minutes
        return self.minute

    @staticmethod
    def at(hour: int, minute: int = 0) -> int:
        return hour * 60 + minute
