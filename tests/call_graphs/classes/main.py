class Engine:
    def __init__(self, fuel):
        self.fuel = fuel

    def start(self):
        self.ignite()

    def ignite(self):
        pass


class Car:
    def __init__(self):
        self.engine = Engine("petrol")

    def drive(self):
        self.engine.start()
        honk = self.beep
        honk()

    def beep(self):
        pass

    @staticmethod
    def make():
        return Car()


Car.make().drive()
