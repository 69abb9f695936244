def words(text):
    return text.split(" ")


", ".join(["a", "b"])
counts = {"a": 1}
counts.items()
(1, 2, 1).count(1)
"abc".no_such_method()  # str defines no such method: no edge
words("a b")
