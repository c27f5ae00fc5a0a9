"""Present so pytest puts the project root on sys.path: test files import `tests.helpers`."""
