// A message box: Enter sends, Shift+Enter breaks the line, and Enter that ends an input method's composition
// (Chinese, Japanese) only ends it; labelled for screen readers by its placeholder.
import type { Ref } from "react";

export function Composer({
  id,
  label,
  sendLabel,
  value,
  disabled,
  inputRef,
  onChange,
  onSend,
}: {
  id: string;
  label: string;
  sendLabel: string;
  value: string;
  disabled: boolean;
  inputRef?: Ref<HTMLTextAreaElement>;
  onChange: (value: string) => void;
  onSend: () => void;
}) {
  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault();
        onSend();
      }}
    >
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <textarea
        id={id}
        ref={inputRef}
        rows={2}
        value={value}
        placeholder={label}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          // keyCode 229: the Enter that ends a composition in browsers that fire keydown after compositionend
          if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing && e.keyCode !== 229) {
            e.preventDefault();
            onSend();
          }
        }}
      />
      <button type="submit" disabled={disabled || !value.trim()}>
        {sendLabel}
      </button>
    </form>
  );
}
