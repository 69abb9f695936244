from .tools import helper
