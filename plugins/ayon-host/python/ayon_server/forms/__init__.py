__all__ = ["FormSelectOption", "SimpleForm", "SimpleFormField"]

from .simple_form import FormSelectOption, SimpleForm, SimpleFormField
