import {
  ArrowUp,
  History,
  KeyRound,
  LogOut,
  Lock,
  Menu,
  Pencil,
  Plus,
  Search,
  Sparkles,
  Square,
  Star,
  Trash2,
  X,
  type LucideIcon,
  type LucideProps,
} from "lucide-react";

/** A lucide icon at the app's size; with `title` it is a labelled image, without it is decoration. */
type IconProps = Omit<LucideProps, "ref"> & { title?: string };

function iconOf(Glyph: LucideIcon, name: string) {
  const Icon = ({ title, ...props }: IconProps) => (
    <Glyph size={16} aria-hidden={title ? undefined : true} role={title ? "img" : undefined} focusable="false" {...props}>
      {title ? <title>{title}</title> : null}
    </Glyph>
  );
  Icon.displayName = name;
  return Icon;
}

export const LockIcon = iconOf(Lock, "LockIcon");
export const HistoryIcon = iconOf(History, "HistoryIcon");
export const PlusIcon = iconOf(Plus, "PlusIcon");
export const SearchIcon = iconOf(Search, "SearchIcon");
export const MenuIcon = iconOf(Menu, "MenuIcon");
export const CloseIcon = iconOf(X, "CloseIcon");
export const SendIcon = iconOf(ArrowUp, "SendIcon");
export const PencilIcon = iconOf(Pencil, "PencilIcon");
export const SparklesIcon = iconOf(Sparkles, "SparklesIcon");
export const TrashIcon = iconOf(Trash2, "TrashIcon");
export const KeyIcon = iconOf(KeyRound, "KeyIcon");
export const SignOutIcon = iconOf(LogOut, "SignOutIcon");

const StopGlyph = iconOf(Square, "StopIcon");
export const StopIcon = (p: IconProps) => <StopGlyph fill="currentColor" {...p} />;

const StarGlyph = iconOf(Star, "StarIcon");
export const StarIcon = ({ filled, ...p }: IconProps & { filled?: boolean }) => (
  <StarGlyph fill={filled ? "currentColor" : "none"} {...p} />
);
