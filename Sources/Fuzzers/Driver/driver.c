// Header-only: the declaration of libFuzzer's driver.
