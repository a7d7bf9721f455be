"""Pipewright's AYON addon host: runs the server code of AYON addon packages for the Pipewright server, which
speaks to it over stdin/stdout (see plugins/ayon-host/README.md)."""
