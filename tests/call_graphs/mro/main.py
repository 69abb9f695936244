class Base:
    def greet(self):
        pass

    def run(self):
        self.greet()


class Left(Base):
    def greet(self):
        super().greet()


class Right(Base):
    def greet(self):
        pass


class Both(Left, Right):
    pass


Both().run()
Right().run()
