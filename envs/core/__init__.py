"""Shared machinery every domain uses: config validation, spaces, vector envs,
the PettingZoo adapter and rendering."""
