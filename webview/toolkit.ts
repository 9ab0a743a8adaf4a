/**
 * The only module that imports @vscode/webview-ui-toolkit (deprecated, pinned at 1.4.0), so that
 * moving to @vscode-elements/elements is a change to this file alone.
 */
import {
  provideVSCodeDesignSystem,
  vsCodeButton,
  vsCodeCheckbox,
  vsCodeDropdown,
  vsCodeOption,
  vsCodeTextField,
} from "@vscode/webview-ui-toolkit";
import { unsafeStatic } from "lit/static-html.js";

provideVSCodeDesignSystem().register(
  vsCodeButton(),
  vsCodeCheckbox(),
  vsCodeDropdown(),
  vsCodeOption(),
  vsCodeTextField(),
);

/** The toolkit's element names, so other modules never spell a tag of a particular library. */
export const Tag = {
  button: "vscode-button",
  checkbox: "vscode-checkbox",
  dropdown: "vscode-dropdown",
  option: "vscode-option",
  textField: "vscode-text-field",
} as const;

/** The same names for lit's static templates (`lit/static-html.js`): the one way lit takes a tag from a value. */
export const StaticTag = {
  button: unsafeStatic(Tag.button),
  checkbox: unsafeStatic(Tag.checkbox),
  dropdown: unsafeStatic(Tag.dropdown),
  option: unsafeStatic(Tag.option),
  textField: unsafeStatic(Tag.textField),
} as const;

/** The value of a toolkit form control (text field, dropdown) or its checked state (checkbox). */
export function controlValue(control: Element): string {
  return (control as HTMLInputElement).value ?? "";
}

export function controlChecked(control: Element): boolean {
  return Boolean((control as HTMLInputElement).checked);
}
