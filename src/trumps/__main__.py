"""``python -m trumps``: the ``trumps`` command."""

from trumps.cli import main

if __name__ == "__main__":
    main()
