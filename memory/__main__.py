"""``python -m memory ...``: the command line, as the ``memory`` script runs it."""
from .cli import main

if __name__ == "__main__":  # pragma: no branch
    main()
