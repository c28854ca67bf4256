//! The words of the workshop's controls: the forms, the picture and its inspector, the lesson
//! player, and the errors the workshop's state reports.

use super::phrases;

phrases! {
    /// The lesson player's Next button.
    LESSON_NEXT: "Next →", "下一步 →";
}
