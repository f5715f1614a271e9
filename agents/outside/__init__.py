"""Players outside this process: a language model behind a function (``llm:``, llm.py and
prompt.py; docs/llm_agents.md)."""
