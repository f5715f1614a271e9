"""Per game: the saved-state fields where every value ``from_dict`` accepts is a state the game
can reach (read by ``tests/test_from_dict.py``)."""
