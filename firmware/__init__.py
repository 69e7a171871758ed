"""The table runtime: wires the rules (`engine`) to the seats (`hardware`)."""
