"""Tools on top of everything: human play in the terminal and the replay viewer."""
