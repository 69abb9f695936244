"""Environment constants."""
ENVIRONMENT = "production"
TEST_ENVIRONMENT = "test"
