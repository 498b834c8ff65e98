"""The static passes: they read a fixture and check it, and never run anything (load, YAML compose,
schema check, build, version check, state values, scenarios)."""
