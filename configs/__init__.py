"""The default training configs, one per game and mode (``train.py --config flip6`` finds them
by name; installed as ``cardarena.configs``)."""
