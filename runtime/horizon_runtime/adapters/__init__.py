"""Model adapters: one class per catalog "adapter", all with the batch interface of `base.Adapter`."""
