"""Serial links to the table: seat pods and the host console, over one JSON-lines protocol.

Each seat pod is sent its own seat's face and nothing else; the console is
sent what the whole table may see.
"""
