"""Players that are not Python objects of this process: a program playing through JSON lines
on its stdin and stdout (``exec:``, process.py; docs/protocol.md) and a language model behind a
function (``llm:``, llm.py and prompt.py; docs/llm_agents.md)."""
