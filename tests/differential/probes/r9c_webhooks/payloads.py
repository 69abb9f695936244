"""Recorded webhook bodies (constant strings) and their signatures."""
import hashlib
import hmac

SECRET = b"whsec_test_5f2c"
OTHER_SECRET = b"whsec_live_91ab"

INVOICE_PAID = '{"id": "evt_1", "type": "invoice.paid", "data": {"object": {"id": "in_100", "status": "paid", "amount_paid": 4200}}}'
INVOICE_FAILED = '{"id": "evt_2", "type": "invoice.payment_failed", "data": {"object": {"id": "in_101", "status": "open", "amount_paid": 0}}}'
CHARGE_REFUNDED = '{"id": "evt_3", "type": "charge.refunded", "data": {"object": {"id": "ch_7", "status": "refunded"}}}'
CHARGE_PENDING = '{"id": "evt_4", "type": "charge.updated", "data": {"object": {"id": "ch_8", "status": "pending"}}}'
CUSTOMER_CREATED = '{"id": "evt_5", "type": "customer.created", "data": {"object": {"id": "cus_1", "email": "ann@example.com"}}}'
CUSTOMER_NO_EMAIL = '{"id": "evt_6", "type": "customer.created", "data": {"object": {"id": "cus_2", "email": null}}}'
CUSTOMER_DELETED = '{"id": "evt_7", "type": "customer.deleted", "data": {"object": {"id": "cus_3"}}}'
PAYOUT_CREATED = '{"id": "evt_8", "type": "payout.created", "data": {"object": {"id": "po_1", "status": "in_transit"}}}'
SUBSCRIPTION_ACTIVE = '{"id": "evt_9", "type": "customer.subscription.updated", "data": {"object": {"id": "sub_1", "status": "active", "plan": "pro"}}}'
SUBSCRIPTION_PAST_DUE = '{"id": "evt_10", "type": "customer.subscription.updated", "data": {"object": {"id": "sub_2", "status": "past_due", "plan": "pro"}}}'


def sign(body: str, secret: bytes = SECRET) -> str:
    return hmac.new(secret, body.encode("utf-8"), hashlib.sha256).hexdigest()

# signature header recorded with the customer.created delivery
CUSTOMER_CREATED_SIGNATURE = sign(CUSTOMER_CREATED)
