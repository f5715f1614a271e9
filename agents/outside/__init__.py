"""Agents that are not Python objects of this process: programs that play through a protocol."""
