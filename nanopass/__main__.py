import sys

from nanopass.cli import main

sys.exit(main())
