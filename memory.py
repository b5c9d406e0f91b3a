"""Run the CLI from a checkout: python memory.py ..."""
from memory.cli import main
main()
