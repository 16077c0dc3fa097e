"""The memory forum (`forum`): an adapter with no server, that replay, the demo and the tests play into."""
