import pkg
import pkg.sub.deep as deep_module
from pkg.tools import helper as renamed

pkg.helper()
renamed()
deep_module.deep()
