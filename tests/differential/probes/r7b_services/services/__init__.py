"""The services subpackage."""
from .base import BaseService, LoggingMixin, AuditMixin
from .payments import PaymentService, QuietPaymentService
from .repos import Repository, make_repository

__all__ = ["BaseService", "LoggingMixin", "AuditMixin", "PaymentService", "QuietPaymentService",
           "Repository", "make_repository"]
