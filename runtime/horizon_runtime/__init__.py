"""Horizon model runtime: an HTTP worker that serves one runtime group's models (docs/runtime-protocol.md)."""
